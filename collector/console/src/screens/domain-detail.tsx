export default function Screen() {
  return <h1>domain-detail</h1>
}
