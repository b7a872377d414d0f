/**
 * One serialized lifecycle queue. Boot, reload, enable, disable, config change and shutdown run one at a
 * time, in order; a request that matches one still waiting (same key) joins it instead of queueing again,
 * so a burst of saves becomes one reload.
 */

interface Task<R> {
  key: string | undefined;
  run: () => Promise<R>;
  promise: Promise<R>;
  settle: (value: R) => void;
  fail: (error: unknown) => void;
}

/** Runs tasks one at a time; a task's own failure reaches only its caller, never the queue. */
export class LifecycleQueue {
  private readonly waiting: Array<Task<any>> = [];
  private running = false;
  private idleWaiters: Array<() => void> = [];

  /** Queues `run`, or joins the waiting task with the same key (the later request's `run` wins). */
  enqueue<R>(key: string | undefined, run: () => Promise<R>, options: { front?: boolean } = {}): Promise<R> {
    if (key !== undefined) {
      const twin = this.waiting.find((t) => t.key === key);
      if (twin !== undefined) {
        twin.run = run;
        return twin.promise;
      }
    }
    let settle!: (value: R) => void;
    let fail!: (error: unknown) => void;
    const promise = new Promise<R>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const task: Task<R> = { key, run, promise, settle, fail };
    if (options.front) this.waiting.unshift(task);
    else this.waiting.push(task);
    void this.drain();
    return promise;
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (!this.running && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Whether a task is running or waiting. */
  get busy(): boolean {
    return this.running || this.waiting.length > 0;
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    while (this.waiting.length > 0) {
      const task = this.waiting.shift()!;
      try {
        task.settle(await task.run());
      } catch (error) {
        task.fail(error);
      }
    }
    this.running = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
