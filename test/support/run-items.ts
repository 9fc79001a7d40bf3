/**
 * The items a work run was dispatched for, read from its inputs as GitHub recorded them: one item
 * (`item`, `epoch`, `brief_hash`) or a batch (`items`, a JSON list of those), the two forms a
 * `workflow` pool dispatches (`dispatch.batch` in docs/configuration.md). Tests and benches judge
 * runs by what GitHub holds, so they read a run's items here, never from Bosun's bookkeeping.
 */
export interface RunItem {
  readonly item: string;
  readonly epoch: number;
  readonly briefHash: string;
}

export function runItems(run: { readonly inputs: Record<string, unknown> }): RunItem[] {
  const batch = run.inputs["items"];
  if (typeof batch === "string") {
    let list: unknown;
    try {
      list = JSON.parse(batch);
    } catch {
      return [];
    }
    if (!Array.isArray(list)) return [];
    return list.flatMap((e: unknown) => {
      if (typeof e !== "object" || e === null) return [];
      const o = e as Record<string, unknown>;
      return [{ item: String(o["item"] ?? ""), epoch: Number(o["epoch"]), briefHash: String(o["brief_hash"] ?? "") }];
    });
  }
  if (run.inputs["item"] === undefined) return [];
  return [{ item: String(run.inputs["item"]), epoch: Number(run.inputs["epoch"]), briefHash: String(run.inputs["brief_hash"] ?? "") }];
}

/** Whether the run was dispatched for this item (at this epoch, when given). */
export function runIsFor(run: { readonly inputs: Record<string, unknown> }, item: number | string, epoch?: number): boolean {
  return runItems(run).some((r) => r.item === String(item) && (epoch === undefined || r.epoch === epoch));
}
