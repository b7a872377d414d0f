/**
 * The steering and follow-up queues. Steering is injected before the next request; follow-ups wait
 * until the agent would stop. Each hands out everything at once (`all`) or one message per turn.
 */
import type { AgentMessage } from "pi-host";

/** Delivery mode, as pi's settings name it. */
export type QueueMode = "all" | "one-at-a-time";

/** A FIFO of messages with a delivery mode. */
export class MessageQueue {
  private items: AgentMessage[] = [];

  constructor(public mode: QueueMode) {}

  push(message: AgentMessage): void {
    this.items.push(message);
  }

  /** Takes what the mode allows: all queued messages, or the oldest one. */
  take(): AgentMessage[] {
    return this.mode === "all" ? this.items.splice(0) : this.items.splice(0, 1);
  }

  /** Empties the queue (abort), returning what was queued. */
  clear(): AgentMessage[] {
    return this.items.splice(0);
  }

  get length(): number {
    return this.items.length;
  }

  /** The queued messages' text, for `queue_update` events and UIs. */
  texts(): string[] {
    return this.items.map((m) => {
      const content = (m as { content?: unknown }).content;
      if (typeof content === "string") return content;
      return Array.isArray(content)
        ? content.map((b: { type: string; text?: string }) => (b.type === "text" ? b.text : "")).join("")
        : "";
    });
  }
}
