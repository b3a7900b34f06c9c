"use client";

import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { TBody, THead, Table, Td, Th, Tr } from "./table";

/** A table from column definitions (TanStack Table), so every list shares one look and one behaviour. */
export function DataTable<T>({ columns, data, rowLabel }: { columns: ColumnDef<T, unknown>[]; data: T[]; rowLabel?: (row: T) => string }) {
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table returns fresh functions by design.
  const table = useReactTable({ columns, data, getCoreRowModel: getCoreRowModel() });
  return (
    <Table>
      <THead>
        {table.getHeaderGroups().map((group) => (
          <Tr key={group.id}>
            {group.headers.map((header) => (
              <Th key={header.id} className={(header.column.columnDef.meta as { className?: string } | undefined)?.className}>
                {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
              </Th>
            ))}
          </Tr>
        ))}
      </THead>
      <TBody>
        {table.getRowModel().rows.map((row) => (
          <Tr key={row.id} aria-label={rowLabel?.(row.original)}>
            {row.getVisibleCells().map((cell) => (
              <Td key={cell.id} className={(cell.column.columnDef.meta as { className?: string } | undefined)?.className}>
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </Td>
            ))}
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
