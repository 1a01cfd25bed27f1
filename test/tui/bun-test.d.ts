// The few bun:test functions these tests use, so the project's tsc (Node types only) checks them.
declare module "bun:test" {
  type Fn = () => void | Promise<void>;
  export const test: {
    (name: string, fn: Fn, timeoutMs?: number): void;
    skipIf(condition: boolean): (name: string, fn: Fn, timeoutMs?: number) => void;
  };
  export function describe(name: string, fn: () => void): void;
  export function beforeEach(fn: Fn): void;
  export function afterEach(fn: Fn): void;
  export function beforeAll(fn: Fn, timeoutMs?: number): void;
  export function afterAll(fn: Fn, timeoutMs?: number): void;
  export function expect(value: unknown): {
    toBe(v: unknown): void;
    toEqual(v: unknown): void;
    toContain(v: unknown): void;
    toMatch(v: RegExp | string): void;
    toBeNull(): void;
    toBeTruthy(): void;
    toBeGreaterThan(n: number): void;
    toThrow(v?: unknown): void;
    not: { toContain(v: unknown): void; toBe(v: unknown): void; toMatch(v: RegExp | string): void; toBeNull(): void };
  };
}
