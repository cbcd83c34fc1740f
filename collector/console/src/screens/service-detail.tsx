export default function Screen() {
  return <h1>service-detail</h1>
}
