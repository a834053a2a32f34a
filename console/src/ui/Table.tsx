// Every table of the console, in a box of its own that scrolls sideways when the table is wider than
// the page (a phone), so the page itself never does. Children are the table's caption and rows.

import type { ComponentChildren, RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

interface TableProps {
  /** Names the box for screen readers when it scrolls; unique on its page. */
  label: string;
  /** Classes of the table besides `table`. */
  class?: string;
  testId?: string;
  children: ComponentChildren;
}

export function Table({ label, class: extra, testId, children }: TableProps) {
  const box = useRef<HTMLDivElement>(null);
  // Only a box that scrolls is a named region in the Tab order (a keyboard scrolls it with the
  // arrows); a table that fits adds no stop to the keyboard's way through the page.
  const scrolls = useScrollsSideways(box);
  return (
    <div ref={box} class="table-box" role={scrolls ? 'region' : undefined} aria-label={scrolls ? label : undefined} tabIndex={scrolls ? 0 : undefined}>
      <table class={extra ? `table ${extra}` : 'table'} data-testid={testId}>
        {children}
      </table>
    </div>
  );
}

/** Whether the box's content is wider than the box, measured again whenever either changes size. */
function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const observer = new ResizeObserver(() => setScrolls(box.scrollWidth > box.clientWidth));
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return scrolls;
}
