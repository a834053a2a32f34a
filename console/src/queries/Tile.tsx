// One number with its label, as the activity and revenue summaries show them.
export function Tile({ label, value, name }: { label: string; value: string; name: string }) {
  return (
    <div class="tile" data-metric={name}>
      <div class="tile-label">{label}</div>
      <div class="tile-value">{value}</div>
    </div>
  );
}
