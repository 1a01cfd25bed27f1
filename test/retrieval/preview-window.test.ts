import { describe, expect, it } from "vitest";
import { contentLines, previewWindow } from "../../core/retrieval/preview-window.js";

// A pack of a class's small methods, as the chunker makes them: 40 lines, the method a query
// asks about in the middle.
const PACK = contentLines(`class Inventory:
    def __init__(self, store):
        self.store = store
        self.items = {}
        self.log = []

    def add_item(self, sku, count):
        self.items[sku] = self.items.get(sku, 0) + count
        self.log.append(("add", sku, count))

    def remove_item(self, sku, count):
        left = self.items.get(sku, 0) - count
        if left < 0:
            raise ValueError(sku)
        self.items[sku] = left

    def reorder_threshold(self, sku):
        usage = self.store.weekly_usage(sku)
        lead = self.store.supplier_lead_days(sku)
        return usage * lead / 7

    def needs_reorder(self, sku):
        on_hand = self.items.get(sku, 0)
        return on_hand <= self.reorder_threshold(sku)

    def export_csv(self, path):
        with open(path, "w") as out:
            for sku, count in sorted(self.items.items()):
                out.write(f"{sku},{count}\\n")

    def audit(self):
        for entry in self.log:
            print(entry)

    def clear(self):
        self.items.clear()
        self.log.clear()

    def __len__(self):
        return len(self.items)
`);

const shown = (query: string, maxLines: number): string[] => {
  const { start, end } = previewWindow(PACK, query, maxLines);
  return PACK.slice(start, end);
};

describe("the lines a result shows", () => {
  it("shows a chunk that fits whole, whatever the query", () => {
    const short = contentLines("def f():\n    return 1\n");
    expect(previewWindow(short, "supplier lead time", 24)).toEqual({ start: 0, end: 2 });
  });

  it("moves to the method whose words the query uses, starting at its declaration", () => {
    const lines = shown("when is a reorder needed for a sku given supplier lead days", 8);
    expect(lines[0]).toBe("    def reorder_threshold(self, sku):");
    expect(lines).toContain("        lead = self.store.supplier_lead_days(sku)");
    expect(lines).toContain("    def needs_reorder(self, sku):");
  });

  it("starts at the declaration above a matching body, not at the matching line", () => {
    const lines = shown("write rows to a csv file", 6);
    expect(lines[0]).toBe("    def export_csv(self, path):");
    expect(lines.some((l) => l.includes('out.write(f"{sku},{count}'))).toBe(true);
  });

  it("keeps the head when the query's words are all there or nowhere", () => {
    expect(previewWindow(PACK, "add an item to the store", 10)).toEqual({ start: 0, end: 10 });
    expect(previewWindow(PACK, "websocket handshake", 10)).toEqual({ start: 0, end: 10 });
    expect(previewWindow(PACK, "", 10)).toEqual({ start: 0, end: 10 });
  });

  it("shows a block at the chunk's end from its declaration, not the unit before it", () => {
    expect(shown("len of the stock", 12)).toEqual(["    def __len__(self):", "        return len(self.items)"]);
  });

  it("shows a declaration and its body over a line elsewhere that repeats one of their words", () => {
    // `audit` is said once in the declaration and once more in a comment far below: the declaration wins.
    const lines = contentLines(["def audit(log):", "    for entry in log:", "        print(entry)", ...Array.from({ length: 20 }, (_, i) => `x${i} = ${i}`), "# audit done"].join("\n"));
    expect(previewWindow(lines, "audit the log", 5)).toEqual({ start: 0, end: 5 });
  });

  it("starts at a declaration whose opening brace stands on the next line", () => {
    const lines = contentLines(
      [
        "public class Repository",
        "{",
        "    public void Insert(Order order)",
        "    {",
        "        orders.Add(order);",
        "    }",
        "",
        "    public void Delete(int id)",
        "    {",
        "        orders.RemoveAll(o => o.Id == id);",
        "    }",
        "}",
      ].join("\n"),
    );
    expect(lines.slice(...Object.values(previewWindow(lines, "delete an order by id", 3)))).toEqual([
      "    public void Delete(int id)",
      "    {",
      "        orders.RemoveAll(o => o.Id == id);",
    ]);
  });
});
