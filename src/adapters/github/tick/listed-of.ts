import type { ListedIssue } from "./tick-github.js";

/** An issue as REST's listing and read answer it (the fields the tick reads). */
export type RestIssue = { number: number; title: string; body?: string | null; labels: Array<string | { name?: string }>; user: { login: string } | null; created_at: string; updated_at: string; comments: number; state: string; state_reason?: string | null; pull_request?: unknown };

export const listedOf = (i: RestIssue): ListedIssue => ({
  number: i.number,
  title: i.title,
  body: i.body ?? "",
  labels: i.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter((l) => l !== ""),
  author: i.user?.login ?? "ghost",
  createdAt: Date.parse(i.created_at),
  updatedAt: Date.parse(i.updated_at),
  comments: i.comments,
  open: i.state === "open",
  completed: i.state === "closed" && i.state_reason === "completed",
});
