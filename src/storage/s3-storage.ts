// Files in an S3-compatible store (AWS S3, MinIO, R2, ...), path-style addressing
// (`<endpoint>/<bucket>/<key>`). Checksums are sent and checked only where the API requires them:
// several S3-compatible stores do not accept the newer default (aws-chunked uploads with trailing
// checksums).
import { createReadStream } from "node:fs";
import { stat as statFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import type { S3Settings } from "../config.js";
import { assertValidKey, contentTypeOf, FileNotFoundError, type ByteRange, type Storage, type StoredFile } from "./storage.js";

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === "NotFound" || error.name === "NoSuchKey");
}

export class S3Storage implements Storage {
  readonly kind = "s3" as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async put(key: string, localPath: string, options: { contentType?: string } = {}): Promise<StoredFile> {
    assertValidKey(key);
    const { size } = await statFile(localPath);
    const contentType = options.contentType ?? contentTypeOf(key);
    const answer = await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: createReadStream(localPath), ContentLength: size, ContentType: contentType }),
    );
    return { size, contentType, lastModified: new Date(), etag: answer.ETag };
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range && { Range: `bytes=${range.start}-${range.end}` }) }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new FileNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredFile | null> {
    assertValidKey(key);
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: answer.ContentLength ?? 0, contentType: answer.ContentType ?? contentTypeOf(key), lastModified: answer.LastModified, etag: answer.ETag };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertValidKey(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${prefix}/`, ContinuationToken: token }));
      // One DELETE per object: stores that take no batch delete without a Content-MD5 take these.
      for (const object of page.Contents ?? []) if (object.Key) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.Key }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
