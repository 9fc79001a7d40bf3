/**
 * Real webhook payload shapes: the example from `@octokit/webhooks-examples` for the event and
 * action, with the fake's state written over it (repository, sender, installation, and the
 * event's own objects such as issue, label, comment, pull_request).
 */
import { createRequire } from "node:module";
import type { FakeState, RepoState } from "./state.js";
import { repoJson, userJson } from "./to-json-user-repo.js";

interface EventDefinition {
  name: string;
  examples: Array<Record<string, unknown>>;
}

let definitions: EventDefinition[] | undefined;

/** The 4.3 MB examples array, loaded on first use. */
function examples(): EventDefinition[] {
  if (definitions === undefined) {
    const require = createRequire(import.meta.url);
    definitions = require("@octokit/webhooks-examples") as EventDefinition[];
  }
  return definitions;
}

/** A deep copy of the example payload for `event`/`action`; throws for an event GitHub does not send. */
export function examplePayload(event: string, action?: string): Record<string, unknown> {
  const definition = examples().find((d) => d.name === event);
  if (definition === undefined) throw new Error(`no webhook example for event "${event}"`);
  const example = definition.examples.find((e) => action === undefined || e.action === action) ?? (action === undefined ? undefined : definition.examples[0]);
  if (example === undefined) throw new Error(`no webhook example for ${event}.${action ?? ""}`);
  return structuredClone(example);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Our fields over the example's: objects merge one level deep, everything else replaces. */
function overlay(base: Record<string, unknown>, top: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(top)) {
    const under = out[key];
    out[key] = isObject(under) && isObject(value) ? { ...under, ...value } : value;
  }
  return out;
}

export interface PayloadInput {
  event: string;
  action?: string;
  repo: RepoState;
  sender: string;
  fields: Record<string, unknown>;
}

/** The payload GitHub would send for this event in the fake's current state. */
export function buildWebhookPayload(state: FakeState, input: PayloadInput): Record<string, unknown> {
  const payload = examplePayload(input.event, input.action);
  delete payload.organization;
  delete payload.enterprise;
  const key = `${input.repo.owner}/${input.repo.name}`.toLowerCase();
  const installation = [...state.installations.values()].find((i) => i.repos.some((r) => r.toLowerCase() === key));
  const base: Record<string, unknown> = {
    repository: repoJson(state, input.repo),
    sender: userJson(state, input.sender),
  };
  if (input.action !== undefined) base.action = input.action;
  if (installation === undefined) delete payload.installation;
  else base.installation = { id: installation.id, node_id: Buffer.from(`Installation:${installation.id}`).toString("base64") };
  return overlay(payload, { ...base, ...input.fields });
}
