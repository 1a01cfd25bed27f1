// Types of s3-server.mjs (a real S3-compatible server on 127.0.0.1 for tests and benchmarks).
export const S3_TEST_KEY: string;
export const S3_TEST_SECRET: string;

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** storageOptions for the config: endpoint, region and the account's keys. */
  storageOptions: Record<string, string>;
  /** PUTs answered 412 because their precondition failed (proof the preconditions were exercised). */
  readonly preconditionFailures: number;
  close(): Promise<void>;
}

export function startS3Server(bucket?: string): Promise<TestS3Server>;
