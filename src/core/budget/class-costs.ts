import { taskClassOf } from "../metrics/task-class.js";
import { RunningPercentile } from "./running-percentile.js";

/**
 * What runs of each task class reported costing (micro-dollars), for an item that names no money
 * cap of its own: it reserves the 90th percentile of its class (nearest rank), so nine runs in ten
 * of the kind seen so far fit in it. The class is the claim key's namespace, as everywhere.
 */
export class ClassCosts {
  private readonly byClass = new Map<string, RunningPercentile>();

  /** A run of the item with this claim key reported costing `micros`. */
  observe(claimKey: string, micros: number): void {
    if (!Number.isFinite(micros) || micros < 0) return;
    const cls = taskClassOf({ claim_key: claimKey });
    let costs = this.byClass.get(cls);
    if (costs === undefined) this.byClass.set(cls, (costs = new RunningPercentile(0.9)));
    costs.add(micros);
  }

  /** The 90th percentile (nearest rank) of the class's reported costs, or undefined before any. */
  p90(taskClass: string): number | undefined {
    return this.byClass.get(taskClass)?.value();
  }
}
