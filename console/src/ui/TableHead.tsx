// The header row of a table: one column header each, and an unnamed-on-screen column for row
// actions (named for screen readers).
export function TableHead({ columns, actions }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th scope="col">{c}</th>
        ))}
        {actions && (
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
