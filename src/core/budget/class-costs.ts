import { taskClassOf } from "../metrics/task-class.js";

/**
 * What runs of each task class reported costing (micro-dollars), for an item that names no money
 * cap of its own: it reserves the 90th percentile of its class (nearest rank), so nine runs in ten
 * of the kind seen so far fit in it. The class is the claim key's namespace, as everywhere.
 */
export class ClassCosts {
  private readonly byClass = new Map<string, number[]>();

  /** A run of the item with this claim key reported costing `micros`. */
  observe(claimKey: string, micros: number): void {
    if (!Number.isFinite(micros) || micros < 0) return;
    const cls = taskClassOf({ claim_key: claimKey });
    const sorted = this.byClass.get(cls) ?? [];
    // Kept sorted: insert at the first place not below it.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as number) < micros) lo = mid + 1;
      else hi = mid;
    }
    sorted.splice(lo, 0, micros);
    this.byClass.set(cls, sorted);
  }

  /** The 90th percentile (nearest rank) of the class's reported costs, or undefined before any. */
  p90(taskClass: string): number | undefined {
    const sorted = this.byClass.get(taskClass);
    if (sorted === undefined || sorted.length === 0) return undefined;
    return sorted[Math.ceil(0.9 * sorted.length) - 1];
  }
}
