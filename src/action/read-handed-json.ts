/**
 * Files handed from a job that ran untrusted code to the job that decides (the acceptance result,
 * the agent's work result) are hostile data: this reads one capped JSON object carrying its
 * format marker, or says what is wrong with it. Each reader then checks its own fields.
 */
export function readHandedObject(text: string, maxBytes: number, marker: { readonly field: string; readonly what: string }): { ok: true; record: Record<string, unknown> } | { ok: false; why: string } {
  if (new TextEncoder().encode(text).length > maxBytes) return { ok: false, why: `is larger than ${maxBytes} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, why: "is not JSON" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, why: "is not a JSON object" };
  const record = value as Record<string, unknown>;
  if (record[marker.field] !== 1) return { ok: false, why: `is not a Bosun ${marker.what} (field ${marker.field} must be 1)` };
  return { ok: true, record };
}

// Terminal escapes and control characters (tabs and newlines kept): a handed-over line is shown to people.
const CONTROL = /\u001b\[[0-9;?]*[ -/]*[@-~]|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** A handed-over text without terminal escapes or control characters. */
export function stripControl(text: string): string {
  return text.replace(CONTROL, "");
}
