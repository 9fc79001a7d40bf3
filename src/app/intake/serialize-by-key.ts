/** Runs `task` after every earlier task with the same key has settled. */
export type SerializeByKey = <T>(key: string, task: () => Promise<T>) => Promise<T>;

/**
 * A per-key queue: GitHub may deliver two events for one issue at once (a duplicate, or a label
 * and an edit), and both would read the state before either wrote. Serialising per issue makes
 * the second see the first's effects. It covers one process; replicas still rely on idempotency.
 */
export function createSerializeByKey(): SerializeByKey {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
