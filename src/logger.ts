// Structured JSON logs on stderr. The request id is added by callers from the request context,
// so a log line can always be tied to the response a client saw.
import { pino } from "pino";

export const logger = pino({
  level: process.env.LOG_LEVEL || (process.env.VITEST ? "silent" : "info"),
  base: { service: "cutroom" },
}, pino.destination(2));
