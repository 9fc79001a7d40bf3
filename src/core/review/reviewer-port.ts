/** What the reviewer is sent: a system part (instructions) and a user part (brief, checks, fenced diff). */
export interface ReviewPrompt {
  readonly system: string;
  readonly user: string;
}

/** A provider's raw answer, or why there is none (HTTP status, timeout, exit code). */
export type ReviewerReply = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** The reviewer port: a model behind any API, or a command. Declared here, where it is used. */
export interface Reviewer {
  readonly name: string;
  review(prompt: ReviewPrompt): Promise<ReviewerReply>;
}

/** `advisory` orders the human's reading and never changes the verdict; `blocking` can only fail it. */
export type ReviewMode = "advisory" | "blocking";
