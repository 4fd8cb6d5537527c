// The body every delivery carries (docs/webhooks.md): the event as an envelope.
import { API_VERSION } from "../config.js";

export interface EventRow {
  event_id: string;
  type: string;
  livemode: boolean;
  data: unknown;
  created_at: Date;
}

export function eventEnvelope(event: EventRow) {
  return {
    id: event.event_id,
    object: "event",
    type: event.type,
    created: Math.floor(event.created_at.getTime() / 1000),
    livemode: event.livemode,
    api_version: API_VERSION,
    data: event.data,
  };
}
