export default function Screen() {
  return <h1>domains</h1>
}
