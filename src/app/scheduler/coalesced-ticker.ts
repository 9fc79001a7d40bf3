/**
 * Runs `tick` on demand, never twice at once: triggers that arrive while a tick runs fold into
 * one more tick after it. A burst of webhooks costs two ticks, not one per delivery.
 */
export function coalescedTicker(tick: () => Promise<void>, onError: (err: unknown) => void): { trigger(): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  const loop = async (): Promise<void> => {
    do {
      again = false;
      try {
        await tick();
      } catch (err) {
        onError(err);
      }
    } while (again);
    running = undefined;
  };
  return {
    trigger(): Promise<void> {
      if (running !== undefined) {
        again = true;
        return running;
      }
      running = loop();
      return running;
    },
  };
}
