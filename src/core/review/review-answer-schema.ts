import { z } from "zod";

/** The reviewer's answer for one item. */
export const reviewVerdictSchema = z.enum(["satisfied", "violated", "unclear"]);

const evidenceSchema = z.strictObject({
  path: z.string().min(1).max(500),
  line: z.number().int().positive().optional(),
  why: z.string().min(1).max(2000),
});

const itemAnswerSchema = z.strictObject({
  id: z.string().regex(/^[CN]\d{1,3}$/),
  verdict: reviewVerdictSchema,
  evidence: z.array(evidenceSchema).max(50),
});

/** The only answer a reviewer may give: one entry per item, each with file (and line) evidence. */
export const reviewAnswerSchema = z.strictObject({
  items: z.array(itemAnswerSchema).max(400),
});

export type ReviewAnswer = z.output<typeof reviewAnswerSchema>;
export type ReviewItemAnswer = ReviewAnswer["items"][number];

/** The schema as the prompt shows it to the model (kept beside the zod schema so they change together). */
export const REVIEW_ANSWER_SHAPE = `{"items": [{"id": "C1", "verdict": "satisfied" | "violated" | "unclear", "evidence": [{"path": "src/file.ts", "line": 12, "why": "one sentence"}]}]}`;
