// Cutroom never runs `prisma dev`, the only command that loads this package; the real one
// declares Node >= 22, so package.json's overrides point here instead (docs/install.md).
export async function startLocalDurableStreamsServer() {
  throw new Error("prisma dev is not supported in Cutroom: @prisma/streams-local is stubbed out (docs/install.md).");
}
