/**
 * The narrow port a mode uses instead of `@actions/core` and `@actions/github`, so only main.ts
 * touches the Actions toolkit and modes are tested with plain objects.
 */
export interface ActionLogger {
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

/** The event that started the run, read once from the environment by main.ts. */
export interface ActionEvent {
  readonly name: string;
  readonly payload: Record<string, unknown>;
  readonly repo: { readonly owner: string; readonly repo: string };
  readonly sha: string;
  readonly ref: string;
  readonly runId: number;
  readonly serverUrl: string;
}

export interface ActionIo {
  /** An input's value, '' when unset (as `core.getInput` answers). */
  input(name: string): string;
  setOutput(name: string, value: string): void;
  setFailed(message: string): void;
  /** Appends markdown to the job summary. */
  summary(markdown: string): Promise<void>;
  /** Registers a value that must never appear in a log. */
  setSecret(value: string): void;
  readonly log: ActionLogger;
  readonly event: ActionEvent;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** One mode of the Action (DESIGN.md, "The Action"). */
export interface ActionMode {
  run(io: ActionIo): Promise<void>;
}
