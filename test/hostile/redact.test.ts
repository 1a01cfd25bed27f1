// The one redactor: every secret shape in the hostile fixture is caught, in prose ("text") and
// in source code ("code"), and ordinary code is left searchable.
import { describe, expect, it } from "vitest";
import { isSecretName, redact, redactSecrets } from "../../core/redact.js";
import { MISSED_SECRETS, SECRETS } from "./fixture.js";

describe("redactor", () => {
  it.each(MISSED_SECRETS)("removes %j from text", (text, secret) => {
    expect(redact(text)).not.toContain(secret);
  });

  it.each(SECRETS.map((s) => [s.kind, s.text, s.secret]))("removes a %s from text and from code", (_kind, text, secret) => {
    expect(redact(text, "text")).not.toContain(secret);
    expect(redact(text, "code")).not.toContain(secret);
  });

  it("keeps the line count of code, so chunk line numbers stay true", () => {
    const code = SECRETS.map((s) => s.text).join("\n");
    expect(redact(code, "code").split("\n").length).toBe(code.split("\n").length);
  });

  it("leaves ordinary source code alone", () => {
    const code = [
      "const token = this.token;",
      "password = getPassword(user)",
      "  password: string;",
      'const sortKey = "name";',
      'headers["content-type"] = "application/json";',
      "const sha = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';",
      "const url = `https://example.com:8443/path/${id}`;",
      "DB_PASSWORD=${DB_PASSWORD}",
      "the task-management-system-overview page",
    ].join("\n");
    expect(redactSecrets(code, "code")).toEqual({ text: code, redactions: {} });
  });

  it("stays fast on pathological input (a 1 MB file is chunked and redacted line by line)", () => {
    const b64 = Array.from({ length: 200_000 }, (_, i) => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i * 7919) % 64]).join("");
    const inputs = [b64, "a.b-c_".repeat(40_000), "a-".repeat(100_000), "http://".repeat(30_000), "mysql ".repeat(30_000), "password=".repeat(20_000), " -u x".repeat(40_000), "Basic ".repeat(30_000)];
    for (const input of inputs) {
      for (const profile of ["code", "text"] as const) {
        const started = Date.now();
        redact(input, profile);
        expect(Date.now() - started, `${input.slice(0, 12)}… (${profile})`).toBeLessThan(3000);
      }
    }
  });

  it("redacts an assignment to every kind of secret name, in code and in text", () => {
    const names = ["DB_PASSWORD", "DB_PASS", "MY_API_KEY", "KEY", "dbPassword", "client_secret", "AUTH_TOKEN", "signingKey", "userPwd", "PASSPHRASE", "apikey", "CREDENTIALS", "x_auth", "SECRETS", "SSH_KEYS"];
    for (const name of names) {
      expect(isSecretName(name), name).toBe(true);
      for (const line of [`${name} = "Zq8vLm2pX9wR"`, `${name}=Zq8vLm2pX9wR`, `  "${name}": "Zq8vLm2pX9wR",`]) {
        for (const profile of ["code", "text"] as const) expect(redact(line, profile), `${line} (${profile})`).not.toContain("Zq8vLm2pX9wR");
      }
    }
  });

  it("judges secret names by their parts", () => {
    for (const n of ["DB_PASSWORD", "DB_PASS", "MY_API_KEY", "KEY", "dbPassword", "client_secret", "AUTH_TOKEN", "signingKey"]) expect(isSecretName(n), n).toBe(true);
    for (const n of ["sortKey", "primary_key", "bypass", "tokenizer", "passage", "monkey"]) expect(isSecretName(n), n).toBe(false);
  });
});
