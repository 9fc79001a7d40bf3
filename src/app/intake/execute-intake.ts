import type { IntakeAction } from "../../core/intake/intake-types.js";
import type { IntakeWriter } from "./octokit-intake-github.js";

/**
 * Performs the intake's actions in the order decided: the comment before the label, so a crash in
 * between leaves a snapshot without `bosun:queued` (the next approval adds the label), never a
 * queued item without its snapshot. `beforeLabels` runs once before the first label write (the
 * cached label bootstrap), so events that write nothing create nothing either.
 */
export async function executeIntake(writer: IntakeWriter, issue: number, actions: readonly IntakeAction[], beforeLabels: () => Promise<unknown>): Promise<{ writes: number; posted: ReadonlyArray<{ id: number; body: string }> }> {
  let writes = 0;
  const posted: Array<{ id: number; body: string }> = [];
  let bootstrapped = false;
  for (const action of actions) {
    switch (action.kind) {
      case "comment":
        posted.push({ id: await writer.comment(issue, action.body), body: action.body });
        break;
      case "update-comment":
        await writer.updateComment(action.commentId, action.body);
        break;
      case "add-labels":
        if (!bootstrapped) await beforeLabels();
        bootstrapped = true;
        await writer.addLabels(issue, action.labels);
        break;
      case "remove-label":
        await writer.removeLabel(issue, action.label);
        break;
      case "noop":
        continue;
    }
    writes++;
  }
  return { writes, posted };
}
