import { z } from "zod";

/** What a `bosun/gate` check run says about itself, for the readers that turn it into a GATE event. */
export interface GateCheckMarker {
  readonly v: 1;
  /** The brief's id as the gate resolved it (informational: readers bind by `brief`). */
  readonly item: string | null;
  /** The hash of the brief the change was judged against (`sha256:…`), or null when none was found. */
  readonly brief: string | null;
  readonly verdict: "pass" | "fail" | "could-not-check";
  /** The commit judged. */
  readonly sha: string;
  /**
   * For a fail, the failure class it stands for (docs/lifecycle.md): `retry` when only the
   * acceptance command failed, `refuse` when the change is off its brief (paths, size, sensitive
   * paths, the reviewer). Absent on markers written before it: a fail then counts as refuse.
   */
  readonly failure?: "retry" | "refuse" | null;
  /** The gate's own words for a fail or could-not-check: what failed, in one line (≤ 500 characters). */
  readonly reason?: string;
}

const PREFIX = "<!-- bosun:gate ";
const SUFFIX = " -->";

const markerSchema = z.strictObject({
  v: z.literal(1),
  item: z.string().min(1).max(100).nullable(),
  brief: z.string().regex(/^sha256:[0-9a-f]{64}$/).nullable(),
  verdict: z.enum(["pass", "fail", "could-not-check"]),
  sha: z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/),
  failure: z.enum(["retry", "refuse"]).nullable().exactOptional(),
  reason: z.string().max(500).exactOptional(),
});

/**
 * The marker a `bosun/gate` check run carries as the FIRST line of its summary: an HTML comment
 * (invisible on GitHub) holding the verdict as JSON. Only the first line is read, and the writer
 * puts the marker there before any text from the pull request (paths, evidence), so a file name
 * that looks like a marker further down is never taken for one.
 * @example renderGateCheckMarker({ v: 1, item: "12", brief: "sha256:…", verdict: "fail", sha: "…" })
 */
export function renderGateCheckMarker(marker: GateCheckMarker): string {
  const extra = { ...(marker.failure === undefined ? {} : { failure: marker.failure }), ...(marker.reason === undefined ? {} : { reason: marker.reason.slice(0, 500) }) };
  // `--` would end the HTML comment early: the reason is the PR's paths, so it is escaped.
  return `${PREFIX}${JSON.stringify({ v: 1, item: marker.item, brief: marker.brief, verdict: marker.verdict, sha: marker.sha, ...extra }).replace(/--/g, "-\u002d")}${SUFFIX}`;
}

/** Reads the marker from a check run's summary (its first line only), or says why there is none. */
export function parseGateCheckMarker(summary: string | null | undefined): { ok: true; marker: GateCheckMarker } | { ok: false; reason: string } {
  const first = (summary ?? "").split("\n", 1)[0] ?? "";
  if (!first.startsWith(PREFIX) || !first.endsWith(SUFFIX)) return { ok: false, reason: "no bosun:gate marker on the summary's first line" };
  let json: unknown;
  try {
    json = JSON.parse(first.slice(PREFIX.length, first.length - SUFFIX.length));
  } catch {
    return { ok: false, reason: "the bosun:gate marker is not JSON" };
  }
  const parsed = markerSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `the bosun:gate marker is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(marker)"}: ${i.message}`).join("; ")}` };
  return { ok: true, marker: parsed.data };
}
