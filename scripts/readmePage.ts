// Build step: README.md as a plain HTML page (dist/readme.html), so the app can link to its
// sections (e.g. the privacy note links to #sharing-and-privacy) without leaving the origin.
// Headings get GitHub-style anchors; code blocks, lists and tables are kept as text; links to
// files of the repository keep their text only, and images are left out.

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function inline(s: string): string {
  return (
    esc(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      // Images and links into the repository (docs/…) point at files the app does not serve:
      // an image is left out, a link keeps its text.
      .replace(/!\[[^\]]*\]\([^)\s]+\)/g, '')
      .replace(/\[([^\]]+)\]\((https?:[^)\s]+|#[^)\s]+)\)/g, '<a href="$2">$1</a>')
      .replace(/\[([^\]]+)\]\((?!https?:|#)[^)\s]+\)/g, '$1')
  );
}

export function readmeToHtml(md: string): string {
  const out: string[] = [];
  const lines = md.split(/\r?\n/);
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) out.push(`<p>${para.map(inline).join('\n')}</p>`);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    const h = /^(#{1,6})\s+(.*)$/.exec(l);
    if (l.startsWith('```')) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] as string).startsWith('```'); i++) code.push(lines[i] as string);
      out.push(`<pre><code>${esc(code.join('\n'))}</code></pre>`);
    } else if (h) {
      flush();
      const n = (h[1] as string).length;
      out.push(`<h${n} id="${slug(h[2] as string)}">${inline(h[2] as string)}</h${n}>`);
    } else if (/^\s*([-*]|\d+\.)\s|^\|/.test(l)) {
      flush();
      const block: string[] = [l];
      while (i + 1 < lines.length && /^\s*([-*]|\d+\.)\s|^\||^\s{2,}\S/.test(lines[i + 1] as string)) block.push(lines[++i] as string);
      out.push(`<pre class="block">${block.map(inline).join('\n')}</pre>`);
    } else if (l.trim() === '' || /^!\[[^\]]*\]\([^)\s]+\)\s*$/.test(l)) flush();
    else para.push(l);
  }
  flush();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mesh Workbench: README</title>
<style>body{font:15px/1.55 system-ui,sans-serif;max-width:820px;margin:2rem auto;padding:0 1rem;color:#1f2328;background:#fff}
pre{background:#f6f8fa;padding:.7rem;overflow:auto;white-space:pre-wrap}pre.block{background:none;padding:0;font:inherit}
code{font-family:ui-monospace,monospace;font-size:90%}a{color:#0b57c2}
@media (prefers-color-scheme: dark){body{background:#1e1e1e;color:#d6dae0}pre{background:#25272a}a{color:#7cb1ff}}</style>
</head><body><main>
${out.join('\n')}
</main></body></html>
`;
}
