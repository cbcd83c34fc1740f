import type { ComponentChildren } from 'preact'

export interface Column<T> {
  header: string
  cell: (row: T) => ComponentChildren
  /** Hidden below 640 px wide, to keep the table readable on a phone. */
  secondary?: boolean
  align?: 'right'
}

/** A table that scrolls sideways inside its box on narrow screens instead of the page. */
export function Table<T>({
  rows,
  columns,
  rowKey,
  caption,
}: {
  rows: T[]
  columns: Array<Column<T>>
  rowKey: (row: T) => string
  caption: string
}) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                class={`${column.secondary ? 'secondary' : ''} ${column.align === 'right' ? 'num' : ''}`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  class={`${column.secondary ? 'secondary' : ''} ${column.align === 'right' ? 'num' : ''}`}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
