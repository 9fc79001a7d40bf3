import { SPEND_KEPT_MS } from "../../core/budget/claim-spend.js";
import type { ClaimRefsApi } from "./claim-refs-api.js";
import { renderClaimMessage } from "../../core/claims/claim-record.js";
import { ClaimRefView } from "./claim-ref-view.js";

/**
 * Epoch floors of cleaned-up claims (DESIGN.md, "Claims"): a long-settled claim ref is deleted
 * only by moving its record to a floor ref (`<prefix>-floors/<item>`) in the same atomic update,
 * so a later grant on the item starts above every epoch it ever had and old workers stay fenced.
 */
export class ClaimFloors {
  /** Where cleaned-up claims leave their last record, so the next grant starts above its epoch. */
  readonly floorPrefix: string;
  private readonly floors: ClaimRefView;
  /** Cleanups GitHub refused in this process: not tried again (the ref simply stays). */
  private readonly forgetRefused = new Set<string>();

  constructor(
    private readonly refs: ClaimRefsApi,
    /** The claim refs' own view: a cleanup deletes a ref there. */
    private readonly view: ClaimRefView,
    private readonly prefix: string,
    /** How old a listing of floor refs may be before it is read again (one tick's span). */
    private readonly reuseListingMs: number,
  ) {
    this.floorPrefix = `${prefix.replace(/\/+$/, "")}-floors/`;
    this.floors = new ClaimRefView(refs, this.floorPrefix);
  }

  /**
   * Cleans up the ref of an item settled before `settledBefore` (it must still be at `sha`, the
   * head listed): listings and a cold start then read only live and recent claims. On its own,
   * never inside a claim batch (GitHub does not document deletions in `updateRefs` without force):
   * one atomic update moves the record to the item's epoch floor ref and deletes the claim ref, so
   * the floor exists whenever the claim ref is gone. Best effort: refused, the ref simply stays.
   */
  async forget(ref: string, sha: string, settledBefore: number): Promise<boolean> {
    if (this.forgetRefused.has(ref) || !ref.startsWith(this.prefix)) return false;
    const record = await this.view.recordAt(sha, ref);
    if (record?.state !== "settled" || record.at >= settledBefore) return false;
    // Its spend marks are the only record of what it spent: kept until no window can count them.
    if (record.spend?.some((m) => m.at + SPEND_KEPT_MS > settledBefore) === true) return false;
    const floorRef = this.floorRefOf(ref);
    await this.floors.list(this.reuseListingMs);
    const floorHead = (await this.floors.read(floorRef))?.sha;
    // The floor commit descends from the previous floor, so the floor ref only fast-forwards.
    const parents = floorHead === undefined ? [sha] : [floorHead, sha];
    const { sha: floorSha, signedBy } = await this.refs.createCommit(renderClaimMessage(record), parents);
    this.floors.wrote(floorSha, { single: record }, signedBy, parents);
    const outcome = await this.refs.updateRefs([
      { ref: floorRef, from: floorHead, to: floorSha },
      { ref, from: sha, to: undefined },
    ]);
    if (outcome === "applied" || (await this.view.readBack(ref)) === null) {
      this.view.moved(ref, null);
      this.floors.moved(floorRef, floorSha);
      return true;
    }
    this.forgetRefused.add(ref);
    return false;
  }

  /** The highest epoch an item with no claim ref had before its ref was cleaned up (0: never claimed). */
  async floorOf(ref: string): Promise<number> {
    if (!ref.startsWith(this.prefix)) return 0;
    await this.floors.list(this.reuseListingMs);
    const head = await this.floors.read(this.floorRefOf(ref));
    return head === undefined ? 0 : ((await this.floors.recordAt(head.sha, ref))?.epoch ?? 0);
  }

  private floorRefOf(ref: string): string {
    return `${this.floorPrefix}${ref.slice(this.prefix.length)}`;
  }
}
