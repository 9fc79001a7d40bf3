/**
 * Runs `tick` on demand, never twice at once: triggers that arrive while a tick runs fold into
 * one more tick after it. A burst of webhooks costs two ticks, not one per delivery. `heard`: a
 * webhook set it off (or one folded into it), which the tick is told.
 */
export function coalescedTicker(tick: (heard: boolean) => Promise<void>, onError: (err: unknown) => void): { trigger(heard?: boolean): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  let againHeard = false;
  const loop = async (heard: boolean): Promise<void> => {
    let next = heard;
    do {
      again = false;
      againHeard = false;
      try {
        await tick(next);
      } catch (err) {
        onError(err);
      }
      next = againHeard;
    } while (again);
    running = undefined;
  };
  return {
    trigger(heard = false): Promise<void> {
      if (running !== undefined) {
        again = true;
        againHeard ||= heard;
        return running;
      }
      running = loop(heard);
      return running;
    },
  };
}
