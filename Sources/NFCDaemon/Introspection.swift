/// The introspection data the daemon answers with: the very text of Docs/dbus/*.xml, which the
/// test suite compares with the live daemon's `Introspect` (edit both together).
enum Introspection {
    static let scanner = #"""
<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
<!-- nfcscand's D-Bus API on the session bus (bus name org.nfcscan.Scanner1). Reference: Docs/dbus-api.md.
     The test suite compares the live daemon's introspection of /org/nfcscan/Scanner1 with this file. -->
<node name="/org/nfcscan/Scanner1">
  <interface name="org.nfcscan.Scanner1">
    <!-- Register an app's handler object (implementing org.nfcscan.Handler1) for the objects its
         filters match. options: "app-name" s (required), "app-icon" s, "desktop-entry" s,
         "filters" aa{sv} (required). Each filter holds exactly one of "uri-scheme" s (optionally with
         "uri-host" s and "uri-path-prefix" s), "media-type" s, "external-type" s, "android-package" s.
         The registration ends with UnregisterHandler or when the caller's bus connection closes. -->
    <method name="RegisterHandler">
      <arg name="handler" type="o" direction="in"/>
      <arg name="options" type="a{sv}" direction="in"/>
      <arg name="registration" type="u" direction="out"/>
    </method>
    <method name="UnregisterHandler">
      <arg name="registration" type="u" direction="in"/>
    </method>
    <!-- Starts an in-app scan session (Docs/dbus-api.md); returns its org.nfcscan.ScanSession1 object.
         options: "object" s, "multiple" b, "alert-message" s, "timeout" u (seconds, default 60). -->
    <method name="StartScanSession">
      <arg name="options" type="a{sv}" direction="in"/>
      <arg name="session" type="o" direction="out"/>
    </method>
    <!-- Keeps background reading off (and the readers released) while the caller holds the
         returned file descriptor open, like logind's inhibitors: for a wallet, payment or smart-card
         app that needs the reader. what: "background". who: the app's name. why: a reason. -->
    <method name="Inhibit">
      <arg name="what" type="s" direction="in"/>
      <arg name="who" type="s" direction="in"/>
      <arg name="why" type="s" direction="in"/>
      <arg name="fd" type="h" direction="out"/>
    </method>
    <!-- Whether objects are looked for in the background now. -->
    <property name="BackgroundReading" type="b" access="read">
      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
    </property>
    <!-- Why background reading is paused: stable codes ("no-reader", "scan-session", "reader-in-use", "camera",
         "airplane-mode", "locked-after-restart", "screen-off"). -->
    <property name="PausedReasons" type="as" access="read">
      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
    </property>
    <!-- Each system condition ("camera", "airplane-mode", "locked-after-restart", "screen-off") and what is
         known of it: "clear", "holds", "unknown" (no source on this machine) or "ignored" (configuration). -->
    <property name="Conditions" type="a{ss}" access="read">
      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
    </property>
    <property name="Version" type="s" access="read">
      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
    </property>
  </interface>
  <interface name="org.freedesktop.DBus.ObjectManager">
    <method name="GetManagedObjects">
      <arg name="objects" type="a{oa{sa{sv}}}" direction="out"/>
    </method>
    <signal name="InterfacesAdded">
      <arg name="object" type="o"/>
      <arg name="interfaces" type="a{sa{sv}}"/>
    </signal>
    <signal name="InterfacesRemoved">
      <arg name="object" type="o"/>
      <arg name="interfaces" type="as"/>
    </signal>
  </interface>
  <interface name="org.freedesktop.DBus.Properties">
    <method name="Get">
      <arg name="interface" type="s" direction="in"/>
      <arg name="name" type="s" direction="in"/>
      <arg name="value" type="v" direction="out"/>
    </method>
    <method name="GetAll">
      <arg name="interface" type="s" direction="in"/>
      <arg name="properties" type="a{sv}" direction="out"/>
    </method>
    <method name="Set">
      <arg name="interface" type="s" direction="in"/>
      <arg name="name" type="s" direction="in"/>
      <arg name="value" type="v" direction="in"/>
    </method>
    <signal name="PropertiesChanged">
      <arg name="interface" type="s"/>
      <arg name="changed" type="a{sv}"/>
      <arg name="invalidated" type="as"/>
    </signal>
  </interface>
  <interface name="org.freedesktop.DBus.Introspectable">
    <method name="Introspect">
      <arg name="xml" type="s" direction="out"/>
    </method>
  </interface>
  <interface name="org.freedesktop.DBus.Peer">
    <method name="Ping"/>
    <method name="GetMachineId">
      <arg name="machine_uuid" type="s" direction="out"/>
    </method>
  </interface>
</node>

"""#
    static let reader = #"""
<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
<!-- One reader the daemon uses: /org/nfcscan/Scanner1/readers/N, announced by the manager's
     ObjectManager (InterfacesAdded on hotplug, InterfacesRemoved when it goes). -->
<node>
  <interface name="org.nfcscan.Reader1">
    <property name="Name" type="s" access="read"/>
    <!-- "libnfc" or "pcsc". -->
    <property name="Backend" type="s" access="read"/>
    <!-- "searching" (background reading on) or "paused" (see the manager's PausedReasons). -->
    <property name="Status" type="s" access="read">
      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
    </property>
  </interface>
</node>

"""#
    static let session = #"""
<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
<!-- One in-app scan session: /org/nfcscan/Scanner1/sessions/N, returned by
     org.nfcscan.Scanner1.StartScanSession. Only the connection that started it may read or
     control it; its signals are sent to that connection alone; it ends when that connection
     closes. Reference: Docs/dbus-api.md, "In-app scan sessions". -->
<node>
  <interface name="org.nfcscan.ScanSession1">
    <!-- Ends the session (reason "user-canceled"). message: shown on the app's sheet, or "". -->
    <method name="Invalidate">
      <arg name="message" type="s" direction="in"/>
    </method>
    <!-- Looks again: objects already near a reader are read again (each reader is opened anew; a
         reader reports an object once per arrival). Only for the active session. -->
    <method name="RestartPolling"/>
    <!-- An object was read: the fields of `nfcscan --json` as a{sv} (as in org.nfcscan.Handler1). -->
    <signal name="Detected">
      <arg name="scan" type="a{sv}"/>
    </signal>
    <!-- The session ended. reason: user-canceled, timeout, first-read, system-busy,
         radio-disabled, unavailable, terminated. message: a sentence for the person, or "". -->
    <signal name="Invalidated">
      <arg name="reason" type="s"/>
      <arg name="message" type="s"/>
    </signal>
    <!-- What the sheet says now: the first prompt, "Now hold another …" after each read of a
         multiple-object session, or what the app set. -->
    <property name="AlertMessage" type="s" access="readwrite">
      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
    </property>
    <!-- "waiting" (another session is active), "active" (looking for an object) or "reading" (an object
         arrived and is being read: ask the person to keep it still; Detected follows, or "active" again). -->
    <property name="State" type="s" access="read">
      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
    </property>
    <property name="Multiple" type="b" access="read"/>
    <!-- Objects read so far. -->
    <property name="Reads" type="u" access="read">
      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
    </property>
  </interface>
</node>

"""#
}
