// dist/readme.html: the app's privacy line links to README sections by GitHub's anchors.
import { describe, expect, it } from 'vitest';
import { readmeToHtml, slug } from '../../scripts/readmePage.ts';

describe('README page', () => {
  it('gives headings GitHub-style anchors', () => {
    expect(slug('Sharing and privacy')).toBe('sharing-and-privacy');
    expect(slug('Keyboard shortcuts')).toBe('keyboard-shortcuts');
    expect(slug('CLI: proxy-config (beta)')).toBe('cli-proxy-config-beta');
  });

  it('escapes text and keeps code blocks as text', () => {
    const html = readmeToHtml('# Title\n\n## Sharing and privacy\n\nNothing <script> leaves.\n\n```sh\nnpm start && <x>\n```\n');
    expect(html).toContain('<h2 id="sharing-and-privacy">Sharing and privacy</h2>');
    expect(html).toContain('Nothing &lt;script&gt; leaves.');
    expect(html).toContain('<pre><code>npm start &amp;&amp; &lt;x&gt;</code></pre>');
    expect(html).not.toContain('<script>');
  });
});
