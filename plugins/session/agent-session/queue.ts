/**
 * The steering and follow-up queues. Steering is injected before the next request; follow-ups wait
 * until the agent would stop. Each hands out everything at once (`all`) or one message per turn.
 */
import type { AgentMessage, SessionEvent, Settings } from "pi-host";
import { messageText } from "./messages.js";

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

  /** The queued messages themselves, oldest first (a run parked for a reload keeps them). */
  snapshot(): AgentMessage[] {
    return [...this.items];
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
    return this.items.map(messageText);
  }
}

/** The session's two queues; every change is announced as `queue_update`. */
export class PromptQueues {
  readonly steering = new MessageQueue("one-at-a-time");
  readonly followUps = new MessageQueue("one-at-a-time");

  constructor(private readonly emit: (event: SessionEvent) => void) {}

  /** The delivery modes at start-up: the ones a reload kept, else the settings', else one at a time. */
  restoreModes(kept: { steeringMode?: QueueMode; followUpMode?: QueueMode }, settings: Settings): void {
    this.steering.mode = kept.steeringMode ?? (settings.steeringMode as QueueMode | undefined) ?? "one-at-a-time";
    this.followUps.mode = kept.followUpMode ?? (settings.followUpMode as QueueMode | undefined) ?? "one-at-a-time";
  }

  /** Queues `message` for the next request (`steering`) or for when the agent would stop (`followUps`). */
  push(queue: "steering" | "followUps", message: AgentMessage): void {
    this[queue].push(message);
    this.announce();
  }

  /** What `queue`'s mode hands out now. */
  take(queue: "steering" | "followUps"): AgentMessage[] {
    const taken = this[queue].take();
    if (taken.length > 0) this.announce();
    return taken;
  }

  /** Puts back what a parked run kept (run.ts), before anything queued here since. */
  restore(kept: { steering: AgentMessage[]; followUps: AgentMessage[] }): void {
    const steering = this.steering.clear();
    const followUps = this.followUps.clear();
    for (const m of [...kept.steering, ...steering]) this.steering.push(m);
    for (const m of [...kept.followUps, ...followUps]) this.followUps.push(m);
    if (this.pending > 0) this.announce();
  }

  /** Drops everything queued (abort, `clear_queue`); returns the texts it dropped. */
  clear(): { steering: string[]; followUp: string[] } {
    const dropped = { steering: this.steering.texts(), followUp: this.followUps.texts() };
    if (this.steering.clear().length + this.followUps.clear().length > 0) this.announce();
    return dropped;
  }

  /** How many messages wait in both queues. */
  get pending(): number {
    return this.steering.length + this.followUps.length;
  }

  private announce(): void {
    this.emit({ type: "queue_update", steering: this.steering.texts(), followUp: this.followUps.texts() });
  }
}
