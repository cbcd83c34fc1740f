export default function Screen() {
  return <h1>services</h1>
}
