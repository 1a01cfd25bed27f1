import { describe, expect, it } from "vitest";
import { looksRandom, redactionCount, stripSecrets } from "../../core/redact.js";

describe("secret stripping", () => {
  const cases: Array<[string, string, string]> = [
    ["openai-key", "set OPENAI_API_KEY to sk-proj-AbCdEf1234567890GhIjKlMnOp", "sk-proj-AbCdEf1234567890GhIjKlMnOp"],
    ["github-token", "clone with ghp_0123456789abcdefghijABCDEFGHIJ012345", "ghp_0123456789abcdefghijABCDEFGHIJ012345"],
    ["aws-access-key", "the key AKIAIOSFODNN7EXAMPLE is for the bucket", "AKIAIOSFODNN7EXAMPLE"],
    ["slack-token", "webhook token xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij"],
    ["jwt", "auth with eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9"],
    ["google-api-key", "maps key AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA1234567890abcdefghijklmnopqrstuv"],
  ];

  it.each(cases)("removes a %s", (kind, text, secret) => {
    const scan = stripSecrets(text);
    expect(scan.text).not.toContain(secret);
    expect(scan.redactions[kind]).toBeGreaterThanOrEqual(1);
  });

  it("removes a private key block whole", () => {
    const text = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc\n-----END RSA PRIVATE KEY-----\nend";
    const scan = stripSecrets(text);
    expect(scan.text).toBe("key:\n[REDACTED:private-key]\nend");
  });

  it("keeps the URL but drops the password", () => {
    const scan = stripSecrets("db is postgres://admin:hunter2secret@db.local:5432/app");
    expect(scan.text).toBe("db is postgres://admin:[REDACTED]@db.local:5432/app");
  });

  it("drops values assigned to secret-looking names", () => {
    const scan = stripSecrets('use password = "correct-horse" and api_key: abc123def');
    expect(scan.text).not.toContain("correct-horse");
    expect(scan.text).not.toContain("abc123def");
    expect(scan.text).toContain("password = ");
  });

  it.each([
    ["the staging password is correcthorsebatterystaple", "correcthorsebatterystaple"],
    ["log in with pass Tr0ub4dor&3 on the box", "Tr0ub4dor&3"],
    ["the admin pwd was s3cr3t! last week", "s3cr3t!"],
    ["our api key is abcd1234efgh", "abcd1234efgh"],
  ])("drops a secret stated in prose: %j", (text, secret) => {
    const scan = stripSecrets(text);
    expect(scan.text).not.toContain(secret);
    expect(scan.redactions["stated-secret"]).toBe(1);
  });

  it("keeps prose that only mentions passing or passwords", () => {
    for (const text of ["the tests pass after the fix", "pass the config path with --config", "password reset emails go through the mailer queue"]) {
      expect(stripSecrets(text).text).toBe(text);
    }
  });

  it("catches unknown high-entropy strings", () => {
    const scan = stripSecrets("the header carried Zq8xL2mN9vR4tY7wK1pB6cH3dF5gJ0sA back");
    expect(scan.text).toContain("[REDACTED:high-entropy]");
    expect(redactionCount(scan)).toBe(1);
  });

  it("leaves ordinary technical text alone", () => {
    const text = "LanceDB needs Float32Array vectors; see core/store/lancedb.ts and getUserByIdFromRepository()";
    expect(stripSecrets(text)).toEqual({ text, redactions: {} });
    expect(looksRandom("getUserByIdFromRepositoryCache")).toBe(false);
    expect(looksRandom("node_modules/.bin/opencode-rag")).toBe(false);
  });
});
