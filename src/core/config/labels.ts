/** Bosun's labels (DESIGN.md, "The app"): names are overridable in `.github/bosun.yml`; these are the defaults. */
export const DEFAULT_LABELS = {
  ready: "bosun:ready",
  queued: "bosun:queued",
  claimed: "bosun:claimed",
  review: "bosun:review",
  done: "bosun:done",
  needsHuman: "bosun:needs-human",
  invalidBrief: "bosun:invalid-brief",
  hold: "bosun:hold",
} as const;

export type LabelRole = keyof typeof DEFAULT_LABELS;
export type Labels = { readonly [K in LabelRole]: string };

/** Colours and descriptions used when Bosun creates its labels in a repository. */
export const LABEL_STYLE: Readonly<Record<LabelRole, { color: string; description: string }>> = {
  ready: { color: "0e8a16", description: "Bosun: approved for an agent; Bosun will validate the brief and queue it" },
  queued: { color: "1d76db", description: "Bosun: brief validated and frozen; waiting for a worker" },
  claimed: { color: "fbca04", description: "Bosun: a worker holds this item (the lock is a git ref, this is its mirror)" },
  review: { color: "bfd4f2", description: "Bosun: its pull request is open (gate, separation, merge) or merged and waiting for its deployment" },
  done: { color: "5319e7", description: "Bosun: merged (and verified where the repository verifies deployments)" },
  needsHuman: { color: "d93f0b", description: "Bosun: needs a human decision (see the latest Bosun comment)" },
  invalidBrief: { color: "b60205", description: "Bosun: the brief has problems (see the Bosun comment)" },
  hold: { color: "c5def5", description: "Bosun: held; not dispatched until a maintainer re-approves" },
};

/** Priority labels `P0`..`P4`: the band of an issue, over the brief's own priority. */
export const PRIORITY_LABEL = /^P([0-4])$/;
/** Pool labels `pool/<name>`: the pool of an issue, over the brief's own pool. */
export const POOL_LABEL_PREFIX = "pool/";

export const PRIORITY_STYLE = { color: "ededed", description: "Bosun priority band (P0 highest)" } as const;
