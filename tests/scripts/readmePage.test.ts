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

  it('links sections and web pages, keeps the text of links into the repository, and leaves images out', () => {
    const html = readmeToHtml(
      '![The app](docs/screenshot.png)\n\nSee [Privacy](#sharing-and-privacy), [Istio](https://istio.io/) and [docs/cli.md](docs/cli.md#analyze).\n',
    );
    expect(html).toContain('<a href="#sharing-and-privacy">Privacy</a>');
    expect(html).toContain('<a href="https://istio.io/">Istio</a>');
    expect(html).toContain('and docs/cli.md.');
    expect(html).not.toContain('screenshot.png');
    expect(html).not.toContain('](');
    expect(html).not.toContain('<p></p>');
  });
});
