/**
 * Runs `tick` on demand, never twice at once: triggers that arrive while a tick runs fold into
 * one more tick after it. A burst of webhooks costs two ticks, not one per delivery — or one, when
 * the burst ends before the running tick starts reading: a tick calls `gathering()` as it starts
 * to read GitHub, and what was triggered before that is read by it (a heard tick first waits a
 * jittered moment, so the deliveries of one event mostly land in that wait). A tick that never
 * says so is followed by one more, as before. `heard`: a webhook set it off (or one folded into
 * it), which the tick is told.
 */
export function coalescedTicker(tick: (heard: boolean, gathering: () => void) => Promise<void>, onError: (err: unknown) => void): { trigger(heard?: boolean): Promise<void> } {
  let running: Promise<void> | undefined;
  let gathered = false;
  let again = false;
  let againHeard = false;
  /** Triggers that came before the running tick started to read. */
  let early = false;
  let earlyHeard = false;
  const loop = async (heard: boolean): Promise<void> => {
    let next = heard;
    do {
      again = false;
      againHeard = false;
      early = false;
      earlyHeard = false;
      gathered = false;
      let failed = false;
      try {
        await tick(next, () => {
          gathered = true;
        });
      } catch (err) {
        failed = true;
        onError(err);
      }
      // The tick never read, or failed after reading (a write refused): what came early still needs a tick.
      if ((!gathered || failed) && early) {
        again = true;
        againHeard ||= earlyHeard;
      }
      next = againHeard;
    } while (again);
    running = undefined;
  };
  return {
    trigger(heard = false): Promise<void> {
      if (running !== undefined) {
        if (gathered) {
          again = true;
          againHeard ||= heard;
        } else {
          early = true;
          earlyHeard ||= heard;
        }
        return running;
      }
      running = loop(heard);
      return running;
    },
  };
}
