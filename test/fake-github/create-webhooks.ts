/**
 * Webhook delivery from the fake to apps under test: signed HTTP POSTs with GitHub's headers,
 * with seeded drop, duplicate and reorder.
 */
import { createHmac } from "node:crypto";
import { buildWebhookPayload } from "./build-webhook-payload.js";
import type { Prng } from "./prng.js";
import type { EmittedEvent } from "./route.js";
import type { FakeState, RepoState } from "./state.js";

export interface HookConfig {
  url: string;
  /** The app's webhook secret; signs `X-Hub-Signature-256`. */
  secret: string;
  /** Event names to receive (default: all). */
  events?: string[];
}

export interface DeliveryOptions {
  /** Chance a delivery is never sent (GitHub does not redeliver on its own). */
  drop?: number;
  /** Chance a delivery is sent twice, with the same `X-GitHub-Delivery`. */
  duplicate?: number;
  /** Shuffle each batch of queued deliveries before sending. */
  reorder?: boolean;
  /** Hold deliveries until `flush()` (deterministic batches); default false: send as they come. */
  hold?: boolean;
  /** When not holding, how long (real ms) to gather a batch before sending; default 0. */
  batchMs?: number;
  /** State changes made through the API emit webhooks (default true). */
  autoEmit?: boolean;
}

export interface TappedEvent {
  event: string;
  action: string | undefined;
  payload: Record<string, unknown>;
}

export interface Delivery {
  /** `X-GitHub-Delivery`. */
  id: string;
  hookUrl: string;
  event: string;
  action: string | undefined;
  payload: Record<string, unknown>;
  /** HTTP status the app answered, null when dropped or the POST failed. */
  status: number | null;
  dropped: boolean;
  /** This send repeats an earlier delivery id. */
  duplicate: boolean;
  error?: string;
}

export interface Webhooks {
  /** Registers an app's webhook URL; returns a function that removes it. */
  register(hook: HookConfig): () => void;
  configure(options: DeliveryOptions): void;
  /** Queues an event built from state (for tests that need a webhook without an API call). */
  send(input: { event: string; action?: string; repo: RepoState; sender: string; fields?: Record<string, unknown> }): void;
  /** Every attempted delivery, in send order. */
  readonly deliveries: readonly Delivery[];
  /** Sends held deliveries and waits until nothing is queued or in flight. */
  flush(): Promise<void>;
  /** Sends a recorded delivery again with the same id, as "Redeliver" in GitHub's UI does. */
  redeliver(id: string): Promise<Delivery>;
  /**
   * Hears every event as it happens, reliably and in order, with the payload a delivery would
   * carry (drop, duplicate, reorder and hold do not apply): how GitHub Actions hears its triggers.
   * Returns a function that stops listening.
   */
  tap(listener: (event: TappedEvent) => void): () => void;
  /** True when an event of this name would reach at least one hook or tap. */
  wants(event: string): boolean;
  /** Internal: queue events a request emitted once it has applied. */
  enqueue(events: readonly EmittedEvent[]): void;
}

/** `sha256=<hex>` of the body with the secret, as GitHub signs deliveries. */
export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

interface Queued {
  hook: HookConfig;
  id: string;
  event: string;
  action: string | undefined;
  payload: Record<string, unknown>;
}

export function createWebhooks(state: FakeState, prng: Prng): Webhooks {
  let hooks: HookConfig[] = [];
  let taps: Array<(event: TappedEvent) => void> = [];
  let options: DeliveryOptions = {};
  const deliveries: Delivery[] = [];
  let queue: Queued[] = [];
  let pumping: Promise<void> | undefined;
  let counter = 0;

  const deliveryId = (): string => {
    const n = (++counter).toString(16).padStart(12, "0");
    return `00000000-0000-4000-8000-${n}`;
  };

  const post = async (q: Queued, duplicate: boolean): Promise<Delivery> => {
    const body = JSON.stringify(q.payload);
    const delivery: Delivery = { id: q.id, hookUrl: q.hook.url, event: q.event, action: q.action, payload: q.payload, status: null, dropped: false, duplicate };
    deliveries.push(delivery);
    try {
      const res = await fetch(q.hook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "GitHub-Hookshot/fake",
          "x-github-event": q.event,
          "x-github-delivery": q.id,
          "x-github-hook-id": "1",
          "x-hub-signature-256": signWebhook(q.hook.secret, body),
        },
        body,
        // GitHub gives up on a delivery after 10 s.
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      delivery.status = res.status;
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    return delivery;
  };

  const sendBatch = async (batch: Queued[]): Promise<void> => {
    if (options.reorder === true) {
      for (let i = batch.length - 1; i > 0; i--) {
        const j = prng.int(0, i);
        [batch[i], batch[j]] = [batch[j] as Queued, batch[i] as Queued];
      }
    }
    // Sequential sends keep the order (and so a seeded run) reproducible.
    for (const q of batch) {
      if (prng.chance(options.drop ?? 0)) {
        deliveries.push({ id: q.id, hookUrl: q.hook.url, event: q.event, action: q.action, payload: q.payload, status: null, dropped: true, duplicate: false });
        continue;
      }
      await post(q, false);
      if (prng.chance(options.duplicate ?? 0)) await post(q, true);
    }
  };

  const pump = (): Promise<void> => {
    pumping ??= (async () => {
      if ((options.batchMs ?? 0) > 0) await new Promise((r) => setTimeout(r, options.batchMs));
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        await sendBatch(batch);
      }
    })().finally(() => {
      pumping = undefined;
    });
    return pumping;
  };

  const push = (event: string, action: string | undefined, payload: Record<string, unknown>): void => {
    for (const listener of taps) listener({ event, action, payload: structuredClone(payload) });
    for (const hook of hooks) {
      if (hook.events !== undefined && !hook.events.includes(event) && !hook.events.includes("*")) continue;
      queue.push({ hook, id: deliveryId(), event, action, payload });
    }
    if (options.hold !== true && queue.length > 0) void pump();
  };

  const wants = (event: string): boolean => taps.length > 0 || hooks.some((h) => h.events === undefined || h.events.includes(event) || h.events.includes("*"));

  return {
    register(hook) {
      hooks.push(hook);
      return () => {
        hooks = hooks.filter((h) => h !== hook);
      };
    },
    tap(listener) {
      taps.push(listener);
      return () => {
        taps = taps.filter((t) => t !== listener);
      };
    },
    configure(next) {
      options = { ...options, ...next };
    },
    send(input) {
      push(input.event, input.action, buildWebhookPayload(state, { ...input, fields: input.fields ?? {} }));
    },
    get deliveries() {
      return deliveries;
    },
    async flush() {
      while (queue.length > 0 || pumping !== undefined) await pump();
    },
    async redeliver(id) {
      const original = deliveries.find((d) => d.id === id);
      const hook = hooks.find((h) => h.url === original?.hookUrl);
      if (original === undefined || hook === undefined) throw new Error(`no delivery ${id} to a registered hook`);
      return post({ hook, id, event: original.event, action: original.action, payload: original.payload }, true);
    },
    wants: (event) => options.autoEmit !== false && wants(event),
    enqueue(events) {
      for (const e of events) push(e.event, e.action, buildWebhookPayload(state, { event: e.event, ...(e.action === undefined ? {} : { action: e.action }), repo: e.repo, sender: e.sender, fields: e.fields() }));
    },
  };
}
