import type { Brief } from "../brief/brief.js";

/** One thing the reviewer must answer: a constraint note (`C1`…) or a non-goal (`N1`…). */
export interface ReviewItem {
  readonly id: string;
  readonly kind: "constraint" | "non-goal";
  readonly text: string;
}

/** The brief's constraint notes and non-goals, numbered: the reviewer answers each by id. */
export function reviewItems(brief: Brief): ReviewItem[] {
  return [
    ...brief.constraints.notes.map((text, i) => ({ id: `C${i + 1}`, kind: "constraint" as const, text })),
    ...brief.non_goals.map((text, i) => ({ id: `N${i + 1}`, kind: "non-goal" as const, text })),
  ];
}
