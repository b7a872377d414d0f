/**
 * The process streams as the web streams the ACP SDK's `ndJsonStream` takes. Written by hand rather
 * than with `Readable.toWeb`, so ending the connection only detaches from stdin and pauses it (it never
 * destroys the host's stream), and every byte on stdout is a protocol record the SDK wrote: stdout
 * carries nothing else.
 */

/** Bytes arriving on `input` until it ends or fails; cancelling detaches the listeners. */
export function readableFrom(input: NodeJS.ReadableStream): ReadableStream<Uint8Array> {
  let detach = (): void => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const onData = (chunk: Buffer | string) => {
        if (open)
          controller.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : new Uint8Array(chunk));
      };
      const onEnd = () => {
        if (!open) return;
        detach();
        controller.close();
      };
      const onError = (error: Error) => {
        if (!open) return;
        detach();
        controller.error(error);
      };
      detach = () => {
        open = false;
        input.off("data", onData);
        input.off("end", onEnd);
        input.off("close", onEnd);
        input.off("error", onError);
      };
      input.on("data", onData);
      input.on("end", onEnd);
      input.on("close", onEnd);
      input.on("error", onError);
    },
    cancel() {
      detach();
      // A paused stdin no longer holds the process open, so a stopped run lets pi exit.
      input.pause();
    },
  });
}

/** Writes to `output`, each write settling when the stream has taken the bytes (so backpressure holds). */
export function writableTo(output: NodeJS.WritableStream): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    write(chunk) {
      return new Promise<void>((resolve, reject) => {
        try {
          output.write(chunk, (error?: Error | null) => (error ? reject(error) : resolve()));
        } catch (error) {
          reject(error);
        }
      });
    },
  });
}
