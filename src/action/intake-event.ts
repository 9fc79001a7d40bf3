import type { IntakeEvent } from "../core/intake/intake-types.js";

/** The intake's view of an `issues` event payload, or undefined for actions the intake ignores. */
export function intakeEventOf(action: string | undefined, payload: { label?: { name?: string }; sender?: { login?: string }; issue?: { body?: string | null } }): IntakeEvent | undefined {
  const sender = payload.sender?.login ?? "";
  switch (action) {
    case "labeled":
      return { kind: "labeled", label: payload.label?.name ?? "", sender, senderCanWrite: false, approvedBody: payload.issue?.body ?? "" };
    case "unlabeled":
      return { kind: "unlabeled", label: payload.label?.name ?? "", sender };
    case "edited":
      return { kind: "edited", sender };
    case "closed":
      return { kind: "closed", sender };
    default:
      return undefined;
  }
}
