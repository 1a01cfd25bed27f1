import type { AstLanguage } from "./types.js";

export const xml: AstLanguage = {
  language: "xml",
  grammar: "tree-sitter-xml",
  extensions: [".xml", ".xsd", ".xsl", ".xslt", ".csproj", ".vbproj", ".fsproj", ".props", ".targets", ".xaml", ".resx", ".plist", ".svg", ".nuspec", ".wsdl"],
  units: {
    element: ["(document (element) @element)", "(document (element (content (element) @element)))"],
  },
  refine(node) {
    const tag = node.namedChildren.find((c) => c?.type === "STag" || c?.type === "EmptyElemTag");
    const name = tag?.namedChildren.find((c) => c?.type === "Name");
    return { symbol: name?.text ?? "" };
  },
};
