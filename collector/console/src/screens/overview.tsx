export default function Screen() {
  return <h1>overview</h1>
}
