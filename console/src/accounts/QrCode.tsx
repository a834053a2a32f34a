// A QR code drawn as SVG from the encoded matrix (no markup strings, nothing leaves the browser).
import { encode } from 'uqr';

export function QrCode({ text, label, size = 184 }: { text: string; label: string; size?: number }) {
  const { data } = encode(text, { ecc: 'M', border: 2 });
  const n = data.length;
  const path = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : ''))).join('');
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${n} ${n}`} shape-rendering="crispEdges" class="qr">
      <rect width={n} height={n} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
