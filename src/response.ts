// The Response class of the server adapter's own fetch API (@whatwg-node/fetch). The adapter
// writes such a response's string body straight to the socket; Node's global Response (undici)
// is built with a web stream for its body, which the adapter then has to read back chunk by chunk.
export { Response } from "@whatwg-node/fetch";
