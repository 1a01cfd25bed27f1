// A real S3-compatible server (s3rver on 127.0.0.1) for the tests; see s3-server.mjs.
export { startS3Server, S3_TEST_KEY, S3_TEST_SECRET, type TestS3Server } from "./s3-server.mjs";
