import type { QueueIssue } from "./scheduler-github.js";

/** The queue's view of an issue from a REST issue object. */
export function queueIssueOf(i: { number: number; title: string; labels: Array<string | { name?: string }>; created_at: string; updated_at: string; comments: number }): QueueIssue {
  return {
    number: i.number,
    title: i.title,
    labels: i.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter((l) => l !== ""),
    createdAt: Date.parse(i.created_at),
    updatedAt: Date.parse(i.updated_at),
    comments: i.comments,
  };
}
