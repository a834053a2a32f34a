// The frame of the signed-out pages: the product's name and one card.
import type { ComponentChildren } from 'preact';

export function AuthLayout({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <main class="auth-layout">
      <div class="auth-card">
        <div class="brand" aria-hidden="true">
          pp
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
