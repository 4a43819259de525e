// Editing help from our API shapes (config/api/crd): completion of field names for the kind
// and path under the cursor, of enum values (TLS modes, actions, protocols, …), snippets for
// common shapes, and hover with a field's type, whether it is required, its allowed values and
// our one-line help. A small provider over the shapes the validator uses, so completion,
// hover and validation never disagree (and no JSON-schema language service is bundled).
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/editor/contrib/snippet/browser/snippetController2';
import { monaco } from './monaco.ts';
import type { Schema } from '../../core/config/shape.ts';
import { documentSchema, schemaAt, typeName } from '../../core/validation/schema/lookup.ts';
import { keyAt, yamlContextAt } from './yamlContext.ts';

interface Snippet {
  label: string;
  detail: string;
  body: string;
}

/** Snippets offered in `spec` of a kind. */
const SNIPPETS: Record<string, Snippet[]> = {
  VirtualService: [
    {
      label: 'http route with weights',
      detail: 'Split traffic between two subsets',
      body: 'http:\n- route:\n  - destination:\n      host: ${1:reviews}\n      subset: ${2:v1}\n    weight: ${3:90}\n  - destination:\n      host: ${1:reviews}\n      subset: ${4:v2}\n    weight: ${5:10}\n$0',
    },
  ],
  DestinationRule: [
    {
      label: 'subsets',
      detail: 'Two subsets selected by a version label',
      body: 'subsets:\n- name: ${1:v1}\n  labels:\n    version: ${1:v1}\n- name: ${2:v2}\n  labels:\n    version: ${2:v2}\n$0',
    },
  ],
  AuthorizationPolicy: [
    {
      label: 'rule: allow a principal',
      detail: 'Allow requests from a service account to some paths',
      body: 'action: ${1|ALLOW,DENY,AUDIT,CUSTOM|}\nrules:\n- from:\n  - source:\n      principals: ["${2:cluster.local/ns/default/sa/sleep}"]\n  to:\n  - operation:\n      methods: ["${3:GET}"]\n      paths: ["${4:/api/*}"]\n$0',
    },
  ],
};

function describeField(name: string, s: Schema, required: boolean): string {
  const lines = [`**${name}**: ${typeName(s)}${required ? ' — required' : ''}${s.deprecated ? ' — deprecated' : ''}`];
  if (s.help) lines.push('', s.help);
  if (s.enum) lines.push('', `Allowed values: ${s.enum.map((v) => `\`${v}\``).join(', ')}`);
  const bounds: string[] = [];
  if (s.minimum !== undefined) bounds.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) bounds.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined) bounds.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) bounds.push(`at most ${s.maxLength} characters`);
  if (s.maxItems !== undefined) bounds.push(`at most ${s.maxItems} items`);
  if (s.format === 'duration') bounds.push('a duration such as 5s, 250ms or 1h30m (at least 1ms)');
  if (bounds.length) lines.push('', `Must be ${bounds.join(', ')}.`);
  for (const r of s.rules ?? []) if (r.message && !r.rule.startsWith('duration(')) lines.push('', `Rule: ${r.message}`);
  return lines.join('\n');
}

function insertFor(name: string, s: Schema): string {
  if (s.enum) return `${name}: \${1|${s.enum.join(',')}|}`;
  if (s.type === 'boolean') return `${name}: \${1|true,false|}`;
  if (s.type === 'array') return s.items?.type === 'object' ? `${name}:\n- $0` : `${name}:\n- \${1}`;
  if (s.type === 'object') return `${name}:\n  $0`;
  return `${name}: $0`;
}

let registered = false;

/** Longest document (in lines) read around the cursor; a larger one is cut there. */
const MAX_DOCUMENT_LINES = 20_000;

/**
 * The YAML document around a line, read line by line from the model (never the whole file:
 * in a 5 MB file `getValue()` and splitting it cost hundreds of ms per keystroke), with the
 * line's number inside it.
 */
export function documentAround(model: monaco.editor.ITextModel, lineNumber: number): { text: string; line: number } {
  const isSeparator = (l: string) => l.startsWith('---') && (l.length === 3 || /\s/.test(l[3] as string));
  let start = lineNumber;
  while (start > 1 && lineNumber - start < MAX_DOCUMENT_LINES && !isSeparator(model.getLineContent(start - 1))) start--;
  const count = model.getLineCount();
  let end = lineNumber;
  while (end < count && end - lineNumber < MAX_DOCUMENT_LINES && !isSeparator(model.getLineContent(end + 1))) end++;
  const lines: string[] = [];
  for (let i = start; i <= end; i++) lines.push(model.getLineContent(i));
  return { text: lines.join('\n'), line: lineNumber - start + 1 };
}

/** Registers completion and hover for YAML models (once). */
export function registerSchemaHelp(): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCompletionItemProvider('yaml', {
    triggerCharacters: [' ', ':'],
    provideCompletionItems(model, position) {
      const doc = documentAround(model, position.lineNumber);
      const ctx = yamlContextAt(doc.text, doc.line, position.column);
      const root = documentSchema(ctx.apiVersion, ctx.kind);
      if (!root) return { suggestions: [] };
      const word = model.getWordUntilPosition(position);
      const start = position.column - ctx.prefix.length;
      const range = new monaco.Range(position.lineNumber, start, position.lineNumber, position.column);
      void word;
      const suggestions: monaco.languages.CompletionItem[] = [];
      const node = schemaAt(root, ctx.path)?.schema;
      if (!node) return { suggestions };
      if (ctx.at === 'value') {
        const values = node.enum ?? (node.type === 'boolean' ? ['true', 'false'] : []);
        values.forEach((v, i) =>
          suggestions.push({
            label: String(v),
            kind: monaco.languages.CompletionItemKind.EnumMember,
            insertText: String(v),
            range,
            sortText: String(i).padStart(3, '0'),
            detail: node.help ?? typeName(node),
          }),
        );
        return { suggestions };
      }
      const props = node.properties ?? {};
      const taken = new Set(ctx.siblings);
      for (const [name, s] of Object.entries(props)) {
        if (taken.has(name) || name.includes('_')) continue; // snake_case aliases are legacy spellings
        const required = !!node.required?.includes(name);
        suggestions.push({
          label: name,
          kind: monaco.languages.CompletionItemKind.Property,
          detail: `${typeName(s)}${required ? ' (required)' : ''}`,
          documentation: { value: describeField(name, s, required) },
          insertText: insertFor(name, s),
          insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
          sortText: `${required ? '0' : '1'}${name}`,
          range,
        });
      }
      if (ctx.path.length === 1 && ctx.path[0] === 'spec') {
        for (const sn of SNIPPETS[ctx.kind] ?? []) {
          suggestions.push({
            label: sn.label,
            kind: monaco.languages.CompletionItemKind.Snippet,
            detail: sn.detail,
            insertText: sn.body,
            insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
            sortText: `2${sn.label}`,
            range,
          });
        }
      }
      return { suggestions };
    },
  });
  monaco.languages.registerHoverProvider('yaml', {
    provideHover(model, position) {
      const doc = documentAround(model, position.lineNumber);
      const k = keyAt(doc.text, doc.line, position.column);
      if (!k) return null;
      const root = documentSchema(k.apiVersion, k.kind);
      const found = root && schemaAt(root, k.path);
      if (!found) return null;
      return {
        range: new monaco.Range(position.lineNumber, k.startCol, position.lineNumber, k.endCol),
        contents: [{ value: describeField(k.key, found.schema, found.required) }],
      };
    },
  });
}
