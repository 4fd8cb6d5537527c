// HTTP over a bare TCP socket, for what fetch cannot do: stream a body of any size chunk by chunk
// and see how much of it the server took, send headers slowly, hold connections open.
import net from "node:net";

export interface RawAnswer {
  /** Status of the first response on the connection (0 when none came). */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Body bytes the client managed to hand to the connection before it was closed. */
  bodyBytesSent: number;
}

function parseAnswer(raw: string): Omit<RawAnswer, "bodyBytesSent"> {
  const split = raw.indexOf("\r\n\r\n");
  if (split < 0) return { status: 0, headers: {}, body: "" };
  const [statusLine, ...lines] = raw.slice(0, split).split("\r\n");
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).trim().toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  let body = raw.slice(split + 4);
  if (headers["transfer-encoding"] === "chunked") {
    let decoded = "";
    for (;;) {
      const end = body.indexOf("\r\n");
      const size = Number.parseInt(body.slice(0, end), 16);
      if (!size) break;
      decoded += body.slice(end + 2, end + 2 + size);
      body = body.slice(end + 2 + size + 2);
    }
    body = decoded;
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body };
}

export function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything the server sends until it closes the connection (or `untilMs` passes). */
export function readUntilClosed(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let raw = "";
    socket.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(raw));
  });
}

/**
 * POSTs a chunked body of `totalBytes` (1 MiB chunks of `fill`) and keeps sending until done or
 * until the server closes the connection; returns the answer and how much was sent.
 */
export async function postChunked(url: string, path: string, headers: Record<string, string>, totalBytes: number, fill = "a"): Promise<RawAnswer> {
  const socket = await connect(url);
  const closed = readUntilClosed(socket);
  const head = Object.entries({ host: new URL(url).host, "transfer-encoding": "chunked", connection: "close", ...headers }).map(([name, value]) => `${name}: ${value}`);
  socket.write(`POST ${path} HTTP/1.1\r\n${head.join("\r\n")}\r\n\r\n`);
  const chunk = Buffer.alloc(1 << 20, fill);
  let sent = 0;
  let open = true;
  socket.once("close", () => (open = false));
  while (open && sent < totalBytes) {
    const size = Math.min(chunk.length, totalBytes - sent);
    const frame = Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), chunk.subarray(0, size), Buffer.from("\r\n")]);
    sent += size;
    if (!socket.write(frame)) await new Promise<void>((resolve) => (socket.once("drain", resolve), socket.once("close", resolve)));
  }
  if (open) socket.write("0\r\n\r\n");
  return { ...parseAnswer(await closed), bodyBytesSent: sent };
}

/** Sends `text` as is and returns what the server answers before closing. */
export async function sendRaw(url: string, text: string): Promise<Omit<RawAnswer, "bodyBytesSent">> {
  const socket = await connect(url);
  const closed = readUntilClosed(socket);
  socket.write(text);
  return parseAnswer(await closed);
}
