// Streamed answers (docs/generation.md, "Agents"): an action declared `streams: true` whose input
// asks for `stream: true` answers REST as Server-Sent Events (text/event-stream) while its model
// writes, unless the client asks for JSON (Accept: application/json, batch members included).
// REST leaves an open-able channel in the request context; the handler opens it once the call
// is validated and paid for, sends its events (`start`, then `delta` pieces), and REST closes the
// stream with `done` carrying the whole answer (the same body a JSON call gets) or `error` with
// the error envelope. Validation and credit refusals happen before the channel opens, so they
// answer as ordinary JSON errors with their status. GraphQL has no channel: the handler runs
// unstreamed and answers the whole result.
import { currentRequestContext, type AnswerStream } from "../../context/request-context.js";

export type { AnswerStream } from "../../context/request-context.js";

/** A Server-Sent Events body fed as the handler writes; sends after a hang-up are dropped. */
export class SseChannel implements AnswerStream {
  readonly readable: ReadableStream<Uint8Array>;
  /** Settles when the handler opens the channel (its first event is about to go out). */
  readonly opened: Promise<void>;
  isOpen = false;
  private controller?: ReadableStreamDefaultController<Uint8Array>;
  private closed = false;
  private markOpened!: () => void;
  private readonly encoder = new TextEncoder();

  constructor() {
    this.opened = new Promise((resolve) => (this.markOpened = resolve));
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.closed = true;
      },
    });
  }

  open(): AnswerStream {
    this.isOpen = true;
    this.markOpened();
    return this;
  }

  send(event: string, data: unknown): void {
    if (this.closed) return;
    this.controller?.enqueue(this.encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.controller?.close();
  }
}

/** The stream REST opened for this call, if it asked to stream there; undefined on GraphQL or JSON. */
export function openAnswerStream(): AnswerStream | undefined {
  return currentRequestContext()?.streamAnswer?.open();
}
