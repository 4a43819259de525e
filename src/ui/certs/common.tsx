// Small pieces the certificate views share: copy to the clipboard, and downloads of text
// made in the tab (object URLs; nothing is uploaded).
import { useEffect, useMemo, useState } from 'react';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="link-button certs-copy"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1200);
        });
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

/** A download link for text made in the tab. */
export function DownloadLink({ name, text, label, testId }: { name: string; text: string; label?: string; testId?: string }) {
  const href = useMemo(() => URL.createObjectURL(new Blob([text], { type: 'application/x-pem-file' })), [text]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <a className="link-button certs-download" href={href} download={name} data-testid={testId}>
      {label ?? name}
    </a>
  );
}
