// The storage and URL signer the configuration names, for the HTTP service (rest/files.ts) and the
// render workers alike.
import path from "node:path";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Config } from "../config.js";
import type { Storage } from "./storage.js";
import { LocalStorage } from "./local-storage.js";
import { S3Storage } from "./s3-storage.js";
import { currentRequestContext } from "../context/request-context.js";
import { loadKeyring } from "../config/keyring.js";
import { fileUrlSigner, resolveFileSigningSecret, type FileUrlSigner } from "./signed-urls.js";

type StorageConfig = Pick<Config, "storage" | "storageDir" | "dataDir" | "s3">;

export function createStorage(config: StorageConfig): Storage {
  if (config.storage === "s3") {
    if (!config.s3) throw new Error("storage is s3 but no S3 settings are configured");
    return new S3Storage(config.s3);
  }
  return new LocalStorage(config.storageDir ?? path.join(config.dataDir, "storage"));
}

/** Where links to this service point: CUTROOM_PUBLIC_BASE_URL, else the address it listens on. */
export function serviceBaseUrl(config: Pick<Config, "publicBaseUrl" | "host" | "port">): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

export interface FileService {
  storage: Storage;
  signer: FileUrlSigner;
  /** Base of signed URLs (the origin serving /files/) outside a request. */
  baseUrl: string;
  /**
   * A signed URL of a stored key, valid for config.fileUrlTtlSeconds unless told otherwise. Inside a
   * request it points at the address the caller used (or the configured public base URL).
   */
  signedUrl(key: string, expiresInSeconds?: number): string;
}

export async function createFileService(prisma: PrismaClient, config: Config): Promise<FileService> {
  const storage = createStorage(config);
  const keyring = config.fileSigningSecret === undefined ? await loadKeyring({ configured: config.serverKeys, dataDir: config.dataDir }) : undefined;
  const signer = fileUrlSigner(await resolveFileSigningSecret(prisma, config.fileSigningSecret, keyring));
  const baseUrl = serviceBaseUrl(config);
  return {
    storage,
    signer,
    baseUrl,
    signedUrl: (key, expiresInSeconds = config.fileUrlTtlSeconds) => signer.sign(currentRequestContext()?.baseUrl ?? baseUrl, key, expiresInSeconds),
  };
}

const services = new WeakMap<Config, Promise<FileService>>();

/** One FileService per configuration (jobs get the config, not a service instance). */
export function fileServiceFor(prisma: PrismaClient, config: Config): Promise<FileService> {
  let service = services.get(config);
  if (!service) {
    service = createFileService(prisma, config);
    services.set(config, service);
    service.catch(() => services.delete(config));
  }
  return service;
}
